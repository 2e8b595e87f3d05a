#!/usr/bin/env bash
# The janus-assembly long form (one seed, L = 20) at several time steps and with both integrators,
# five runs at once on one GPU (results/orientation/README.md, "7-time-step-h100"): the leapfrog
# with Berendsen at dt = 0.005, 0.001 and 0.0005 for t = 150; Langevin at dt = 0.005 for t = 500 and
# at 0.001 for t = 150. Each sample reports the local order, the temperature without the particles
# faster than 6 sqrt(kT/m), and their count. Everything lands in $OUT/jexp.tgz.
# The binaries come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/.
set -u
O=$OUT/jexp; mkdir -p $O; BIN=/tmp/meso-bin; mkdir -p $BIN && tar xJf .carry/bins.tar.xz -C $BIN
export LD_LIBRARY_PATH=$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}
MB=$BIN/mesobench
{ nvidia-smi -L; date -u; } > $O/device.txt
run() { name=$1; shift; timeout 420 $MB validate --filter janus-assembly --long --backend cuda --param runs=1 "$@" --json $O/$name.json > $O/$name.log 2>&1; echo "$name rc=$?" >> $O/status.txt; }
run b005 --param time=150 &
run b001 --param dt=0.001 --param time=150 &
run b0005 --param dt=0.0005 --param time=150 &
run l005 --param langevin=1 --param time=500 &
run l001 --param langevin=1 --param dt=0.001 --param time=150 &
wait
cat $O/status.txt
for f in $O/*.json; do python3 -c "
import json,sys
d=json.load(open('$f'))['cases'][0]['data']; s=d['runs'][0]['samples']
print('$(basename $f)', d['integrator'], d['dt'], ' '.join('%.0f:%.2f/%.2f/%d' % (x['time'], x['local_order'], x['bulk_temperature'], x['hot']) for x in s[::3]))
"; done
tar czf $OUT/jexp.tgz -C $O .
