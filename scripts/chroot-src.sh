# Sourced by scripts/gst126.sh and scripts/device-bundle126.sh with $root
# the Debian 13 chroot: the host's CUDA toolkit and /proc (valgrind reads
# /proc/self/maps) mounted in it until the script exits, and this tree's
# tracked files copied to its /src (over what is there: a build dir
# left in it stays).
mkdir -p "$root/usr/local/cuda" "$root/proc" "$root/src"
mount --bind "$(readlink -f /usr/local/cuda)" "$root/usr/local/cuda"
trap 'umount "$root/usr/local/cuda"' EXIT
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"; umount "$root/usr/local/cuda"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$root/src"
