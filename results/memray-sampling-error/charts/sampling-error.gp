# Memray: expected error of an allocation that appears in the profile
# allocsim chart "sampling-error" from ../metrics.csv; data: sampling-error.dat.
# Re-render inside this directory with: gnuplot sampling-error.gp
if (!exists('png_file')) png_file = 'sampling-error.png'
if (!exists('svg_file')) svg_file = 'sampling-error.svg'
set encoding utf8
set datafile separator '\t'
set title 'Memray: expected error of an allocation that appears in the profile' font ',15'
set xlabel 'allocation size S'
set logscale x 2
set xrange [14.545454545454545:5000]
set xtics ('16 B' 16, '32 B' 32, '64 B' 64, '128 B' 128, '256 B' 256, '512 B' 512, '1 KiB' 1024, '2 KiB' 2048, '4 KiB' 4096)
set ylabel 'E[ |estimate − S| / S  given ≥ 1 sample ]'
set yrange [0:200]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set arrow from 32, graph 0 to 32, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'T = 32 B' at 32, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 128, graph 0 to 128, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'T = 128 B' at 128, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 512, graph 0 to 512, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'T = 512 B' at 512, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 2048, graph 0 to 2048, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'T = 2 KiB' at 2048, graph 0.03 left rotate by 90 offset -1, 0 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'sampling-error.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'T = 32 B', \
     'sampling-error.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'sampling-error.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'T = 128 B', \
     'sampling-error.dat' index 3 using 1:2 with lines ls 2 notitle, \
     'sampling-error.dat' index 4 using 1:2:3 with yerrorbars ls 3 title 'T = 512 B', \
     'sampling-error.dat' index 5 using 1:2 with lines ls 3 notitle, \
     'sampling-error.dat' index 6 using 1:2:3 with yerrorbars ls 4 title 'T = 2 KiB', \
     'sampling-error.dat' index 7 using 1:2 with lines ls 4 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Memray''s algorithm, Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'ideal per-byte sampling, no pass-through'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
