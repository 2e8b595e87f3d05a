# The full form: 8 runs of 4000 beads on the backend and 8 on the CPU
# reference (README.md).
meso_validation_long(table-melt TIMEOUT 36000)
