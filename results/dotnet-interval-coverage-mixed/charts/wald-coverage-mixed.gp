# Wald interval coverage of the bytes estimators, mixed sizes, T = 102400
# allocsim chart "wald-coverage-mixed" from ../intervals.csv; data: wald-coverage-mixed.dat.
# Re-render inside this directory with: gnuplot wald-coverage-mixed.gp
if (!exists('png_file')) png_file = 'wald-coverage-mixed.png'
if (!exists('svg_file')) svg_file = 'wald-coverage-mixed.svg'
set encoding utf8
set datafile separator '\t'
set title 'Wald interval coverage of the bytes estimators, mixed sizes, T = 102400' font ',15'
set xlabel 'expected samples (bytes / T)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'coverage of the 95% interval'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set arrow from graph 0, first 95 to graph 1, first 95 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'nominal 95%' at graph 0.02, first 95 offset 0, 0.7 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'wald-coverage-mixed.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'dotnet', \
     'wald-coverage-mixed.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'heapprofd', \
     'wald-coverage-mixed.dat' index 4 using 1:2:3 with yerrorlines ls 3 lw 1 title 'jemalloc', \
     'wald-coverage-mixed.dat' index 6 using 1:2:3 with yerrorlines ls 4 lw 1 title 'tcmalloc', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
