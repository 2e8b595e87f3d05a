# The full form: N = 4000 Gay-Berne, meant for a GPU (docs/orientation.md).
meso_validation_long(rotational-equipartition FILTER ^rotational-equipartition$ TIMEOUT 36000)
