# The full form: 4096 molecules for 380 ps (180 of bath, 200 of NVE) on a GPU (docs/orientation.md).
meso_validation_long(ssd-water FILTER ^ssd-water$ TIMEOUT 36000)
