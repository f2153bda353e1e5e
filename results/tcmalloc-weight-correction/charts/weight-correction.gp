# tcmalloc: relative bias of allocated bytes with and without the a/(r+1) correction (T = 4 KiB)
# allocsim chart "weight-correction" from ../metrics.csv; data: weight-correction.dat.
# Re-render inside this directory with: gnuplot weight-correction.gp
if (!exists('png_file')) png_file = 'weight-correction.png'
if (!exists('svg_file')) svg_file = 'weight-correction.svg'
set encoding utf8
set datafile separator '\t'
set title 'tcmalloc:'."\n".'relative bias of allocated bytes with and without the a/(r+1) correction (T = 4 KiB)' font ',15'
set xlabel 'requested size r (allocated a = its size class)'
set xrange [0:256]
set xtics ('0 B' 0, '32 B' 32, '64 B' 64, '96 B' 96, '128 B' 128, '160 B' 160, '192 B' 192, '224 B' 224, '256 B' 256)
set ylabel 'relative bias of the allocated-bytes estimate'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set arrow from graph 0, first 0 to graph 1, first 0 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'unbiased' at graph 0.02, first 0 offset 70, 0.8 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'weight-correction.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'W a/(r+1) (document)', \
     'weight-correction.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'weight-correction.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'W read as bytes', \
     'weight-correction.dat' index 3 using 1:2 with lines ls 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
