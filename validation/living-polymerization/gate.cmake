# The full form: 4 runs of 4000 growing chains on the CPU reference.
meso_validation_long(living-polymerization BACKEND cpu TIMEOUT 7200)
