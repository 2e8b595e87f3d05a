# The full form: three seeds of 131072 beads on a GPU (README.md).
meso_validation_long(vesicle-formation TIMEOUT 36000)
