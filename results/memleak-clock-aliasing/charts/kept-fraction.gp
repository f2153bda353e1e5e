# memleak -s N: share of allocations kept (clock reading in ns a multiple of N), clock period g
# allocsim chart "kept-fraction" from ../metrics.csv; data: kept-fraction.dat.
# Re-render inside this directory with: gnuplot kept-fraction.gp
if (!exists('png_file')) png_file = 'kept-fraction.png'
if (!exists('svg_file')) svg_file = 'kept-fraction.svg'
set encoding utf8
set datafile separator '\t'
set title 'memleak -s N:'."\n".'share of allocations kept (clock reading in ns a multiple of N), clock period g' font ',15'
set xlabel 'N (-s, "sample every N-th allocation")'
set logscale x 10
set format x '10^{%L}'
set ylabel 'kept allocations / all allocations'
set logscale y 10
set format y '10^{%L}'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set label 'gcd(g, N) / N (derived)' at 100, 0.01 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 250, 0.004 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 999, 0.001001001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1000, 0.001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, 0.000976562 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1250, 8e-04 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, 0.000244141 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, 1e-04 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100, 1 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 250, 0.2 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 999, 0.001001001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1000, 0.1 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, 0.00390625 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1250, 0.04 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, 0.000976562 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, 0.01 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100, 1 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 250, 1 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 999, 0.001001001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1000, 1 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, 0.0078125 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1250, 0.2 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, 0.001953125 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, 0.1 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'kept-fraction.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'clock period g = 1 ns', \
     'kept-fraction.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'clock period g = 100 ns', \
     'kept-fraction.dat' index 4 using 1:2:3 with yerrorbars ls 3 title 'clock period g = 1000 ns', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
