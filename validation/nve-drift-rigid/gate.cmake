# The full forms on a GPU (docs/orientation.md): 8 runs of 10^7 steps each;
# scripts/device_rigid_long.sh shards and resumes them on one GPU. The filter
# is anchored: nve-drift-rigid alone would match nve-drift-rigid-ssd too.
foreach(case nve-drift-rigid nve-drift-rigid-ssd)
  meso_validation_long(${case} FILTER ^${case}$ TIMEOUT 36000)
endforeach()
