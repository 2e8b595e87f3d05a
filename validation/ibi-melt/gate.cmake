# The full form: 400 chains of 10, 1000 configurations a run, 20 IBI
# corrections: a GPU's work (README.md).
meso_validation_long(ibi-melt TIMEOUT 36000)
