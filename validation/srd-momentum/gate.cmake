# The full forms: L = 50 (1.25M particles), in double and, on a GPU, mixed.
meso_validation_long(srd-momentum SUFFIX -double VARIANT precision=double TIMEOUT 36000)
meso_validation_long(srd-momentum SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 7200)
