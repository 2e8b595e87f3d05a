# The full form: Table 2's R = 5 row as published (48,210 particles), P = 0.01 every 100 steps,
# 8 runs of 2000 attempts; meant for a GPU (README.md).
meso_validation_long(surface-polymerization FILTER ^surface-polymerization$ TIMEOUT 36000)
