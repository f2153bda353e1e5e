# dd-trace-php: Poisson(4 MiB) stride upscaled as if exponential, one site of 400 allocations of s bytes
# allocsim chart "stride-bias" from ../metrics.csv; data: stride-bias.dat.
# Re-render inside this directory with: gnuplot stride-bias.gp
if (!exists('png_file')) png_file = 'stride-bias.png'
if (!exists('svg_file')) svg_file = 'stride-bias.svg'
set encoding utf8
set datafile separator '\t'
set title 'dd-trace-php:'."\n".'Poisson(4 MiB) stride upscaled as if exponential, one site of 400 allocations of s bytes' font ',15'
set xlabel 'allocation size s'
set xrange [0:8430551]
set xtics ('0 B' 0, '1 MiB' 1048576, '2 MiB' 2097152, '3 MiB' 3145728, '4 MiB' 4194304, '5 MiB' 5242880, '6 MiB' 6291456, '7 MiB' 7340032, '8 MiB' 8388608)
set ylabel 'relative bias of the upscaled bytes'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label 'derived (renewal sum)' at 419430, -0.9977 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 838861, -0.24979999999999997 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1048576, 0.0328 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1258291, -3.5425999999999997 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1426063, 15.3594 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1677722, 0.8554 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1887437, -8.2434 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2055209, -14.165600000000001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2139095, 25.1551 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2516582, 10.8185 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2936013, -0.6783 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 3355443, -9.2017 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 3774874, -15.7441 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4152361, -20.4358 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4236247, 57.286899999999996 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 5033165, 43.101299999999995 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 6291456, 28.7217 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 7549747, 19.8034 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8346665, 15.834000000000001 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8430551, 15.4719 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'stride-bias.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'dd-trace-php', \
     'stride-bias.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'v8', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
