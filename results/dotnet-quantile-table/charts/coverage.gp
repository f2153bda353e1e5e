# .NET: coverage of 95% intervals for the allocated bytes vs expected samples (1 KiB objects)
# allocsim chart "coverage" from ../intervals.csv; data: coverage.dat.
# Re-render inside this directory with: gnuplot coverage.gp
if (!exists('png_file')) png_file = 'coverage.png'
if (!exists('svg_file')) svg_file = 'coverage.svg'
set encoding utf8
set datafile separator '\t'
set title '.NET:'."\n".'coverage of 95% intervals for the allocated bytes vs expected samples (1 KiB objects)' font ',15'
set xlabel 'expected samples (allocated bytes × p)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'coverage of the true bytes'
set yrange [30:102]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set arrow from graph 0, first 95 to graph 1, first 95 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'nominal 95%' at graph 0.02, first 95 offset 0, 0.7 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'coverage.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'wald', \
     'coverage.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'nb-exact', \
     'coverage.dat' index 4 using 1:2:3 with yerrorlines ls 3 lw 1 title 'nb-exact-corrected', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
