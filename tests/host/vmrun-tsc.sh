# Under TCG, vm/run tells the guest its TSC frequency (the host's,
# measured by vm/tsc-khz.c): the guest's clock then keeps the host's time
# however loaded the host is when it boots. The guest's TSC is within
# 0.5% of the host's measurement (its refined calibration may move it a
# little).
set -u
case "$(uname -m)" in x86_64) ;; *) echo "not an x86-64 host: nothing to check"; exit 0 ;; esac
g=$(mktemp); trap 'rm -f "$g" "$g.khz"' EXIT
cc -std=c11 -O2 -D_GNU_SOURCE -o "$g.khz" vm/tsc-khz.c || exit 1
host=$("$g.khz") || exit 1
cat > "$g" <<'GUEST'
#!/bin/sh
grep -o 'tsc_early_khz=[0-9]*' /proc/cmdline
dmesg | sed -n 's/.*tsc: \(Detected\|Refined TSC clocksource calibration:\) \([0-9.]*\) MHz.*/\2/p' | tail -n 1
GUEST
out=$(VMRUN_ACCEL=tcg vm/run --timeout 300 --append kunit.enable=0 "$g") || { echo "vm/run failed: $out"; exit 1; }
echo "$out"
guest=$(printf '%s\n' "$out" | tail -n 1)
echo "host TSC $host kHz, guest TSC $guest MHz"
printf '%s\n' "$out" | grep -q "^tsc_early_khz=" || { echo "no tsc_early_khz on the guest's command line"; exit 1; }
awk -v h="$host" -v g="$guest" 'BEGIN { d = g * 1000 - h; if (d < 0) d = -d; exit !(g > 0 && d <= h * 0.005) }'
