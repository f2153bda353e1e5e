# jemalloc: 10^6 × 8 B and one 8 MiB aggregated — unbias-then-sum vs sum-then-unbias
# allocsim chart "aggregate-bias-vs-rate" from ../metrics.csv; data: aggregate-bias-vs-rate.dat.
# Re-render inside this directory with: gnuplot aggregate-bias-vs-rate.gp
if (!exists('png_file')) png_file = 'aggregate-bias-vs-rate.png'
if (!exists('svg_file')) svg_file = 'aggregate-bias-vs-rate.svg'
set encoding utf8
set datafile separator '\t'
set title 'jemalloc:'."\n".'10^6 × 8 B and one 8 MiB aggregated — unbias-then-sum vs sum-then-unbias' font ',15'
set xlabel 'sampling rate R'
set logscale x 2
set xrange [119156.36363636363:2306867.2]
set xtics ('128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288, '1 MiB' 1048576, '2 MiB' 2097152)
set ylabel 'relative bias of the aggregate'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label 'derived expectation' at 131072, -20.4 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, -19.61 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 524288, -18.02 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1048576, -14.87 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2097152, -9.370000000000001 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'aggregate-bias-vs-rate.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'bytes, per-sample weights summed', \
     'aggregate-bias-vs-rate.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'bytes, summed then unbiased by the mean sample size', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
