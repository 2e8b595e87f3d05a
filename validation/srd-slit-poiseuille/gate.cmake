# The full form: 32 x 32 cells across, 4000 time units (README.md), in double
# on the CPU reference or any device, and in mixed precision on a GPU.
meso_validation_long(srd-slit-poiseuille SUFFIX -double VARIANT precision=double TIMEOUT 36000)
meso_validation_long(srd-slit-poiseuille SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 7200)
