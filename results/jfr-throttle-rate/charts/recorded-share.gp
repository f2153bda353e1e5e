# JFR throttle 150/s: share of TLAB refills recorded (one thread, evenly spaced refills, 20 s)
# allocsim chart "recorded-share" from ../metrics.csv; data: recorded-share.dat.
# Re-render inside this directory with: gnuplot recorded-share.gp
if (!exists('png_file')) png_file = 'recorded-share.png'
if (!exists('svg_file')) svg_file = 'recorded-share.svg'
set encoding utf8
set datafile separator '\t'
set title 'JFR throttle 150/s:'."\n".'share of TLAB refills recorded (one thread, evenly spaced refills, 20 s)' font ',15'
set xlabel 'TLAB refills per second (evenly spaced)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'refills recorded as jdk.ObjectAllocationSample'
set yrange [0:110.00000000000001]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set label '' at 2, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 5, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 6, 49.1667 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8, 49.375 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10, 49.5 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 15, 66.3333 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 20, 74.75 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived' at 30, 83.1667 left offset 1, -1 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 50, 89.9 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 75, 93.2667 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100, 94.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 125, 95.96000000000001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 150, 96.6333 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 175, 85.349 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 200, 74.3844 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 300, 49.2977 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 500, 29.4265 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1000, 14.6729 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 3000, 4.8833 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, 1.4643 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'every refill (what a 150/s throttle should keep below 150/s)' at graph 0.02, first 100 offset 0, 0.7 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'recorded-share.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'jfr', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
