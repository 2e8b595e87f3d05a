# The full forms: 8 runs of 10^7 NVE steps at N = 5000 per mode and precision;
# meant for GPUs, sharded (README.md).
foreach(mode shift xplor)
  foreach(precision double mixed single)
    meso_validation_long(nve-drift-${mode} SUFFIX -${precision} VARIANT precision=${precision}
                         TIMEOUT 36000)
  endforeach()
endforeach()
