#!/usr/bin/env bash
# The MPCD/SRD solvent's GPU runs behind results/srd/ (issue 12), in one
# device call: every GPU test, compute-sanitizer memcheck and racecheck of
# the MPCD tests (kernels enqueued directly: MESO_TEST_VARIANT=graphs=off), the
# srd-fluid benchmark (L = 50 and 100, double and mixed, sort period, SRD,
# SRD + thermostat and AT), the CPU reference on all host cores, and the
# srd-momentum long forms (double and mixed).
# Usage: scripts/device_srd_solvent.sh <bin dir> <output dir>
set -u
B=$1
O=$2
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpus.txt 2>&1
$B/kernels_test --gtest_color=no > $O/gpu-tests.log 2>&1
echo "kernels_test rc=$? skipped=$(grep -c '\[  SKIPPED \]' $O/gpu-tests.log)" | tee $O/status.txt
CS=compute-sanitizer; command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  MESO_TEST_VARIANT=graphs=off timeout 300 $CS --tool $tool --error-exitcode 9 $B/kernels_test --gtest_filter='Mpcd*' > $O/sanitizer-$tool-mpcd.log 2>&1
  echo "sanitizer $tool mpcd rc=$? $(tail -1 $O/sanitizer-$tool-mpcd.log)" | tee -a $O/status.txt
done
R="--backend cuda --repeats 5 --min-time 0.5 --warmup-time 0.3"
bench() { local name=$1 filter=$2 v=$3; shift 3
  $B/mesobench run $R --filter "$filter" --variant "$v" "$@" --json $O/srd-fluid-$name.json > $O/srd-fluid-$name.txt 2>&1
  echo "bench $name rc=$?" | tee -a $O/status.txt; }
for L in 50 100; do for prec in double mixed; do bench "L$L-$prec-sort25" "srd-fluid.*L=$L\$" "precision=$prec,reorder=cell,sort=25"; done; done
bench L50-mixed-nosort 'srd-fluid.*L=50$' precision=mixed
bench L50-mixed-sort5 'srd-fluid.*L=50$' precision=mixed,reorder=cell,sort=5
bench L50-mixed-sort100 'srd-fluid.*L=50$' precision=mixed,reorder=cell,sort=100
bench L50-mixed-sort25-at 'srd-fluid.*L=50$' precision=mixed,reorder=cell,sort=25 --param rule=at
bench L50-mixed-sort25-thermostat 'srd-fluid.*L=50$' precision=mixed,reorder=cell,sort=25 --param thermostat=1
grep -h "srd-fluid/collide" $O/srd-fluid-*.txt | grep -v "^  done" | tee $O/summary.txt
$B/mesobench run --backend cpu --repeats 3 --min-time 1 --max-n 2000000 --filter 'srd-fluid.*L=50$' --variant reorder=cell,sort=25 --json $O/srd-fluid-L50-cpu16.json > $O/srd-fluid-L50-cpu16.txt 2>&1
echo "bench cpu rc=$?" | tee -a $O/status.txt
for prec in double mixed; do
  $B/mesobench validate --filter srd-momentum --long --backend cuda --variant precision=$prec --json $O/srd-momentum-long-$prec.json > $O/srd-momentum-long-$prec.txt 2>&1
  echo "srd-momentum long $prec rc=$?" | tee -a $O/status.txt
done
