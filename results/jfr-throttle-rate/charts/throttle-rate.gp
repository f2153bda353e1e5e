# JFR throttle 150/s: samples per second against TLAB refills per second (one thread, 20 s)
# allocsim chart "throttle-rate" from ../metrics.csv; data: throttle-rate.dat.
# Re-render inside this directory with: gnuplot throttle-rate.gp
if (!exists('png_file')) png_file = 'throttle-rate.png'
if (!exists('svg_file')) svg_file = 'throttle-rate.svg'
set encoding utf8
set datafile separator '\t'
set title 'JFR throttle 150/s:'."\n".'samples per second against TLAB refills per second (one thread, 20 s)' font ',15'
set xlabel 'TLAB refills per second (evenly spaced)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'samples per second'
set yrange [0:170]
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set label '' at 2, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 5, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 6, 2.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8, 3.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10, 4.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 15, 9.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 20, 14.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 30, 24.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 50, 44.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 75, 69.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100, 94.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 125, 119.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 150, 144.95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 175, 149.36071 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 200, 148.768744 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 300, 147.892991 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 500, 147.13231 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived (scripts/derive-jfr-throttle.py)' at 1000, 146.729074 right offset -8, -1.5 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 3000, 146.50026 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, 146.426792 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set arrow from graph 0, first 150 to graph 1, first 150 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'throttle 150/s' at graph 0.02, first 150 offset 0, 0.7 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'throttle-rate.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'jfr', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
