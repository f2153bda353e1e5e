# tcmalloc: variance cost of weighting by a / (r + 1) (512 allocations, T = 64 KiB)
# allocsim chart "size-class-variance" from ../metrics.csv; data: size-class-variance.dat.
# Re-render inside this directory with: gnuplot size-class-variance.gp
if (!exists('png_file')) png_file = 'size-class-variance.png'
if (!exists('svg_file')) svg_file = 'size-class-variance.svg'
set encoding utf8
set datafile separator '\t'
set title 'tcmalloc:'."\n".'variance cost of weighting by a / (r + 1) (512 allocations, T = 64 KiB)' font ',15'
set xlabel 'requested size r (allocated a = its size class)'
set xrange [0:256]
set xtics ('0 B' 0, '32 B' 32, '64 B' 64, '96 B' 96, '128 B' 128, '160 B' 160, '192 B' 192, '224 B' 224, '256 B' 256)
set ylabel 'Var[estimate] / (T × allocated bytes)'
set yrange [0:*]
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'per-byte sampling of allocated bytes' at graph 0.02, first 1 offset 0, -1.2 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'size-class-variance.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'Monte Carlo (bars: ±2 SE)', \
     'size-class-variance.dat' index 1 using 1:2 with lines ls 1 title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
