# The full form: 24 runs of 4000 growing chains (96,000, the index of dispersion's power against
# a +-10% spread of rates: README.md), on the CPU reference (about 30 minutes on 16 cores) and on
# a GPU in mixed precision (its precision recorded in the JSON).
meso_validation_long(living-polymerization BACKEND cpu TIMEOUT 7200)
meso_validation_long(living-polymerization SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 1800)
