# cc1.raw.zst: accuracy-cost frontier, error of the total vs samples
# allocsim chart "frontier" from ../frontier.csv; data: frontier.dat.
# Re-render inside this directory with: gnuplot frontier.gp
if (!exists('png_file')) png_file = 'frontier.png'
if (!exists('svg_file')) svg_file = 'frontier.svg'
set encoding utf8
set datafile separator '\t'
set title 'cc1.raw.zst: accuracy-cost frontier, error of the total vs samples' font ',15'
set xlabel 'expected samples per MB'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative RMSE of the total'
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
plot 'frontier.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'heapprofd', \
     'frontier.dat' index 0 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 1 pt 10 ps 1.6 notitle, \
     'frontier.dat' index 2 using 1:2 with linespoints ls 2 lw 1 title 'jemalloc', \
     'frontier.dat' index 2 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 2 pt 10 ps 1.6 notitle, \
     'frontier.dat' index 4 using 1:2 with linespoints ls 3 lw 1 title 'tcmalloc', \
     'frontier.dat' index 4 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 3 pt 10 ps 1.6 notitle, \
     'frontier.dat' index 6 using 1:2 with linespoints ls 4 lw 1 title 'dotnet', \
     'frontier.dat' index 6 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 4 pt 10 ps 1.6 notitle, \
     'frontier.dat' index 8 using 1:2 with linespoints ls 5 lw 1 title 'per-allocation', \
     'frontier.dat' index 8 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 5 pt 10 ps 1.6 notitle, \
     'frontier.dat' index 10 using 1:2 with linespoints ls 6 lw 1 title 'optimal-size-class', \
     'frontier.dat' index 10 using 1:($2 <= 0 ? 0.0001036962102377254 : 1/0) with points ls 6 pt 10 ps 1.6 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'closed form', \
     NaN with points pt 10 ps 1.6 lc rgb 'black' title '0, at the floor'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
