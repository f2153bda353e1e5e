# mimalloc's heap profiler (T = 16 KiB): one site's bytes against its object size
# allocsim chart "batching" from ../metrics.csv; data: batching.dat.
# Re-render inside this directory with: gnuplot batching.gp
if (!exists('png_file')) png_file = 'batching.png'
if (!exists('svg_file')) svg_file = 'batching.svg'
set encoding utf8
set datafile separator '\t'
set title 'mimalloc''s heap profiler (T = 16 KiB):'."\n".'one site''s bytes against its object size' font ',15'
set xlabel 'object size s (bytes; blocks up to 32 KiB counted 64 KiB at a time)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative bias of the site''s bytes'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 16, -99.9752 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived (closed form)' at 64, -99.902 left offset 1, 1.5 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 256, -99.6091 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, -98.43769999999999 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, -93.7519 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 16384, -75.00869999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32768, -50.0177 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65536, -0.0358 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 16, -74.6059 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 64, -74.8623 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 256, -74.78869999999999 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, -74.2136 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, -71.7534 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 16384, -60.4643 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32768, -42.1946 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65536, 1.8293 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'batching.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'bytes, sampled sizes summed (unscaled)', \
     'batching.dat' index 2 using 1:2 with linespoints ls 2 lw 1 title 'bytes, s / (1 − e\^(−s/T)) per sample', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
