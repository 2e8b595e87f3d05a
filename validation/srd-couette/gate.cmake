# The full form: 16^3 cells, 4000 time units (README.md), in double on the CPU
# reference or any device, and in mixed precision on a GPU.
meso_validation_long(srd-couette SUFFIX -double VARIANT precision=double TIMEOUT 36000)
meso_validation_long(srd-couette SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 7200)
