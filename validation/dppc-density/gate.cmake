# The full form: 2.3 ns of the 20k-bead bilayer; on a GPU backend the same
# protocol also runs on the CPU reference for the comparison gate. The mixed
# form is the mdscf-dppc workload's GPU default (variant_defaults.cpp).
meso_validation_long(dppc-density TIMEOUT 36000)
meso_validation_long(dppc-density SUFFIX -mixed BACKEND cuda VARIANT precision=mixed,density=scatter
                     TIMEOUT 7200)
