# .NET: variance of the two estimators relative to the bound N q/p (5000 objects of z bytes)
# allocsim chart "estimator-variance" from ../metrics.csv; data: estimator-variance.dat.
# Re-render inside this directory with: gnuplot estimator-variance.gp
if (!exists('png_file')) png_file = 'estimator-variance.png'
if (!exists('svg_file')) svg_file = 'estimator-variance.svg'
set encoding utf8
set datafile separator '\t'
set title '.NET:'."\n".'variance of the two estimators relative to the bound N q/p (5000 objects of z bytes)' font ',15'
set xlabel 'object size z'
set logscale x 2
set xrange [7.2727272727272725:1153433.6]
set xtics ('16 B' 16, '64 B' 64, '256 B' 256, '1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144, '1 MiB' 1048576)
set ylabel 'Var[estimate] / (N q/p)'
set logscale y 10
set format y '10^{%L}'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'document''s bound N q/p' at graph 0.02, first 1 offset 0, 0.7 front
set arrow from 102400, graph 0 to 102400, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'z = 1/p' at 102400, graph 0.03 left rotate by 90 offset -1, 0 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'estimator-variance.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'bytes, per-sample weights summed', \
     'estimator-variance.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'estimator-variance.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'bytes, estimate 2 (s·q/p + u)', \
     'estimator-variance.dat' index 3 using 1:2 with lines ls 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
