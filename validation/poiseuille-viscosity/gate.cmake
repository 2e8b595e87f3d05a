# The full form: the published system, meant for a GPU.
meso_validation_long(poiseuille-viscosity TIMEOUT 86400)
