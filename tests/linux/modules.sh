# The guest's CoreSight drivers (sourced by the commands files as /modules.sh): Debian's
# coresight, coresight-etm4x and coresight-trbe modules, which probe the PE's ETE and Trace
# Buffer Unit as the device tree describes them (no modules.dep in the package: dependencies
# first).
k=/lib/modules/$(uname -r)/kernel
for m in fs/configfs/configfs drivers/hwtracing/coresight/coresight \
         drivers/hwtracing/coresight/coresight-etm4x drivers/hwtracing/coresight/coresight-trbe; do
  insmod $k/$m.ko || echo "guest: insmod $m failed"
done
echo "guest: coresight devices: $(ls /sys/bus/coresight/devices | tr '\n' ' ')"
