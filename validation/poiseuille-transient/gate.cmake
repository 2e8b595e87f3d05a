# The full form: 2.6e12 particle-steps, meant for a GPU.
meso_validation_long(poiseuille-transient TIMEOUT 86400)
