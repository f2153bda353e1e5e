# async-profiler -e alloc: weight max(s, T) of a one-object record (T = 524287)
# allocsim chart "alloc-weight" from ../metrics.csv; data: alloc-weight.dat.
# Re-render inside this directory with: gnuplot alloc-weight.gp
if (!exists('png_file')) png_file = 'alloc-weight.png'
if (!exists('svg_file')) svg_file = 'alloc-weight.svg'
set encoding utf8
set datafile separator '\t'
set title 'async-profiler -e alloc:'."\n".'weight max(s, T) of a one-object record (T = 524287)' font ',15'
set xlabel 'object size s / T'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative bias of the bytes'
set yrange [-50:10]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 0.03125, -1.546 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 0.125, -5.998 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 0.25, -11.52 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 0.500001, -21.306 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 0.750001, -29.648999999999997 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived: max(s,T)(1 − e^{−s/T})/s − 1' at 1.000002, -36.788 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1.500003, -22.313 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2.000004, -13.533000000000001 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 3.000006, -4.979 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4.000008, -1.8319999999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8.000015, -0.034 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'alloc-weight.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'bytes, per-sample weights summed', \
     'alloc-weight.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'alloc-weight.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'bytes, s / (1 − e\^(−s/T)) per sample', \
     'alloc-weight.dat' index 3 using 1:2 with lines ls 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
