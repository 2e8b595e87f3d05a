# The full form: 4096 molecules for 260 ps on a GPU (docs/orientation.md).
meso_validation_long(ssd-water FILTER ^ssd-water$ TIMEOUT 36000)
