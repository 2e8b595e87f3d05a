# The full form: three seeds of 24,000 triblock Janus particles on a GPU, Langevin at the
# converged dt = 0.002 to t = 500
# (docs/orientation.md).
meso_validation_long(janus-assembly FILTER ^janus-assembly$ TIMEOUT 36000)
