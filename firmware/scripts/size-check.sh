#!/bin/sh
# Cross-compiles the device core for an Xtensa LX106 (ESP8266-class microcontroller) with Debian's
# gcc-xtensa-lx106 and picolibc, links it with a stub board (mcu/size_main.cpp), and checks the
# image against the budget: code <= 48 KB, static RAM (.data + .bss) <= 8 KB.
# Figures are for the LINKED IMAGE (core + stubs + the picolibc pieces it pulls in, after
# --gc-sections), not for object files; per-object sizes of the core are printed too.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=$BUILD/mcu
CODE_BUDGET=$((48 * 1024))
RAM_BUDGET=$((8 * 1024))

for tool in xtensa-lx106-elf-g++ xtensa-lx106-elf-gcc xtensa-lx106-elf-size; do
  command -v $tool >/dev/null || { echo "size-check: $tool missing (apt-get install gcc-xtensa-lx106 picolibc-xtensa-lx106-elf)"; exit 1; }
done
SPECS=$(dpkg -L picolibc-xtensa-lx106-elf 2>/dev/null | grep '/picolibcpp\.specs$' | head -n 1 || true)
SPECS=${SPECS:-/usr/lib/xtensa-lx106-elf/picolibcpp.specs}
[ -f "$SPECS" ] || { echo "size-check: picolibcpp.specs not found (apt-get install picolibc-xtensa-lx106-elf)"; exit 1; }

mkdir -p "$OUT/core"
# -mlongcalls as in every ESP8266 toolchain: ROM helpers sit beyond a direct call's reach.
FLAGS="-std=c++17 -Os -mlongcalls -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit
  -ffunction-sections -fdata-sections -Wall -Wextra -Werror -specs=$SPECS -Isrc"
OBJS=""
for src in src/*.cpp mcu/size_main.cpp; do
  obj="$OUT/core/$(basename "$src" .cpp).o"
  xtensa-lx106-elf-g++ $FLAGS -c "$src" -o "$obj"
  OBJS="$OBJS $obj"
done

# picolibc's generic script puts literal pools after the code that loads them, which the LX106's
# l32r cannot reach backwards; put all literals first, as Espressif's scripts do.
sed 's/^\(\t*\)KEEP (\*(\.text\.init\.enter))/\1*(.literal .literal.* .init.literal)\n&/' \
  "$(dirname "$SPECS")/lib/picolibcpp.ld" > "$OUT/lx106.ld"
xtensa-lx106-elf-gcc -specs="$SPECS" -T "$OUT/lx106.ld" mcu/esp8266-rom.ld -Wl,--gc-sections \
  -Wl,--no-warn-rwx-segments -o "$OUT/core.elf" $OBJS

echo "Object files (core only, before linking; text includes literals and read-only data):"
xtensa-lx106-elf-size -t $(echo "$OBJS" | tr ' ' '\n' | grep -v size_main)
echo
echo "Linked image $OUT/core.elf:"
xtensa-lx106-elf-size -A "$OUT/core.elf" | grep -E '^\.(init|text|data|tdata|tbss|bss|stack|except)'
# Code: everything executed or read from flash. Static RAM: initialised and zeroed data; the
# 2 KB .stack the generic script reserves is the stack, not static data, and is left out.
xtensa-lx106-elf-size -A "$OUT/core.elf" | awk -v cb=$CODE_BUDGET -v rb=$RAM_BUDGET '
  $1 ~ /^\.(init|text|toc|except_ordered|except_unordered)$/ { code += $2 }
  $1 ~ /^\.(data|tdata)$/ { data += $2 }
  $1 ~ /^\.(bss|tbss)$/ { bss += $2 }
  END {
    ram = data + bss
    printf "\ncore image: code %d B (%.1f KB of %d KB), .data %d B, .bss %d B, static RAM %d B (%.1f KB of %d KB)\n",
      code, code / 1024, cb / 1024, data, bss, ram, ram / 1024, rb / 1024
    if (code > cb || ram > rb) { print "size-check: OVER BUDGET"; exit 1 }
    print "size-check: within budget"
  }'
