#!/bin/busybox sh
# /init of the initramfs of make-boot.sh (busybox-static of the guest's
# architecture).  On the serial console, in this order:
#   - the boot log (the kernel prints it there itself);
#   - SysRq l, p and t: backtraces of the CPU, its registers, and the
#     stacks of every task;
#   - the captured system, each file between "=== KL-BEGIN name" and
#     "=== KL-END name" lines, printed with the console log level at 1
#     so no kernel message falls inside one (make-boot.sh splits them
#     off the console log);
#   - SysRq c: the kernel crashes (oops, registers, call trace, panic).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# The hardening sysctls as the kernel booted with them.
kptr=$(cat /proc/sys/kernel/kptr_restrict)
dmr=$(cat /proc/sys/kernel/dmesg_restrict)
rva=$(cat /proc/sys/kernel/randomize_va_space)

# A module of the same package (make-boot.sh puts it at /m.ko).
if [ -f /m.ko ]; then
	insmod /m.ko
fi

echo 1 >/proc/sys/kernel/sysrq
echo l >/proc/sysrq-trigger
sleep 1
echo p >/proc/sysrq-trigger
sleep 1
echo t >/proc/sysrq-trigger
sleep 1

# The captured system (root reads kallsyms and modules with addresses).
dmesg -n 1
echo 0 >/proc/sys/kernel/kptr_restrict
section() {
	name=$1
	shift
	echo "=== KL-BEGIN $name"
	"$@"
	echo "=== KL-END $name"
}
put() {
	echo "=== KL-BEGIN $1"
	echo "$2"
	echo "=== KL-END $1"
}
section version cat /proc/version
section cmdline cat /proc/cmdline
section cpuinfo cat /proc/cpuinfo
section modules cat /proc/modules
section iomem cat /proc/iomem
section kallsyms cat /proc/kallsyms
put kptr_restrict "$kptr"
put dmesg_restrict "$dmr"
put randomize_va_space "$rva"
section dmesg dmesg
echo "$kptr" >/proc/sys/kernel/kptr_restrict
dmesg -n 8

echo c >/proc/sysrq-trigger
sleep 5
poweroff -f
