# sqlite3, heapprofd at T = 64 KiB: typical error of each stack's allocated bytes
# allocsim chart "stack-error" from ../metrics.csv; data: stack-error.dat.
# Re-render inside this directory with: gnuplot stack-error.gp
if (!exists('png_file')) png_file = 'stack-error.png'
if (!exists('svg_file')) svg_file = 'stack-error.svg'
set encoding utf8
set datafile separator '\t'
set title 'sqlite3, heapprofd at T = 64 KiB:'."\n".'typical error of each stack''s allocated bytes' font ',15'
set xlabel 'true bytes allocated by the stack (one point per stack)'
set logscale x 2
set xrange [5.454545454545454:279391.2]
set xtics ('16 B' 16, '64 B' 64, '256 B' 256, '1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144)
set ylabel 'typical error: mean |estimate − truth| / truth'
set logscale y 10
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label '100%: sampled in none of the 1000 profiles; far above the line: sampled in a few (the line averages both)' at graph 0.02, first 100 offset 0, 0.7 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'stack-error.dat' index 0 using 1:2 with points ls 1 title 'T = 64 KiB', \
     'stack-error.dat' index 1 using 1:2 with lines ls 1 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'heapprofd, 1000 simulated profiles', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form, ideal per-byte sampler: E|N − λ| / λ for N Poisson with mean λ = bytes / T'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
