# python3.raw.zst: variance of the total / the optimal size-class design's
# allocsim chart "versus-optimum" from ../frontier.csv; data: versus-optimum.dat.
# Re-render inside this directory with: gnuplot versus-optimum.gp
if (!exists('png_file')) png_file = 'versus-optimum.png'
if (!exists('svg_file')) svg_file = 'versus-optimum.svg'
set encoding utf8
set datafile separator '\t'
set title 'python3.raw.zst:'."\n".'variance of the total / the optimal size-class design''s' font ',15'
set xlabel 'expected samples per MB'
set logscale x 10
set format x '10^{%L}'
set ylabel 'variance / optimum at the same expected samples'
set logscale y 10
set format y '10^{%L}'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key outside right top opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set style line 5 lc rgb '#E69F00' lw 2 pt 5 ps 0.75
set style line 6 lc rgb '#56B4E9' lw 2 pt 8 ps 1.3
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'versus-optimum.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'heapprofd', \
     'versus-optimum.dat' index 2 using 1:2 with linespoints ls 2 lw 1 title 'jemalloc', \
     'versus-optimum.dat' index 4 using 1:2 with linespoints ls 3 lw 1 title 'tcmalloc', \
     'versus-optimum.dat' index 6 using 1:2 with linespoints ls 4 lw 1 title 'dotnet', \
     'versus-optimum.dat' index 8 using 1:2 with linespoints ls 5 lw 1 title 'per-allocation', \
     'versus-optimum.dat' index 10 using 1:2 with linespoints ls 6 lw 1 title 'optimal-size-class', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
