# The full form (ARCHITECTURE.md, "How to add a validation case"): minutes on 16 cores.
meso_validation_long(dpd-temperature TIMEOUT 7200)
