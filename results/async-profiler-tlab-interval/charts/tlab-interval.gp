# async-profiler tlab mode: bytes of 256 KiB TLABs against --alloc T (64-byte objects)
# allocsim chart "tlab-interval" from ../metrics.csv; data: tlab-interval.dat.
# Re-render inside this directory with: gnuplot tlab-interval.gp
if (!exists('png_file')) png_file = 'tlab-interval.png'
if (!exists('svg_file')) svg_file = 'tlab-interval.svg'
set encoding utf8
set datafile separator '\t'
set title 'async-profiler tlab mode:'."\n".'bytes of 256 KiB TLABs against --alloc T (64-byte objects)' font ',15'
set xlabel '--alloc interval T / TLAB size (256 KiB)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative bias of the bytes (--total)'
set yrange [-130:10]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 0.25, 0.22 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 0.5, 0.22 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1, 0.22 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1.5, -33.17 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1.9999961853027344, -49.878 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived: (V/used) min(1, V/T) − 1' at 4, -74.939 left offset 0.5, 1.5 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8, -87.469 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 16, -93.735 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32, -96.867 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'tlab-interval.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'tlab mode (JDK < 11, --tlab): the TLAB size per sample, unscaled', \
     'tlab-interval.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'alloc mode (JDK 11+): max(s, T) per sample', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
