# The full form: Langevin and SRD chains of N = 10-40 (and 80) on a GPU
# (README.md; scripts/device_polymer.sh shards it).
meso_validation_long(polymer-hydrodynamics TIMEOUT 36000)
