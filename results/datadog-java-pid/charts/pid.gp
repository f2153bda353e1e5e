# ddprof-java: the profile's bytes against the allocation rate (8 GiB, 16 threads)
# allocsim chart "pid" from ../metrics.csv; data: pid.dat.
# Re-render inside this directory with: gnuplot pid.gp
if (!exists('png_file')) png_file = 'pid.png'
if (!exists('svg_file')) svg_file = 'pid.svg'
set encoding utf8
set datafile separator '\t'
set title 'ddprof-java:'."\n".'the profile''s bytes against the allocation rate (8 GiB, 16 threads)' font ',15'
set xlabel 'allocation rate (MiB/s)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative bias of the bytes'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 16, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 64, 0.2735 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived: Σ_{threads} v(T_{last}) − v(T_0)' at 256, 2.1458 left offset 2, -5 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, 2.9617999999999998 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2048, 1.9716999999999998 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'pid.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'bytes, per-sample weights summed', \
     'pid.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'bytes, weighted with the interval drawn (reference)', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
