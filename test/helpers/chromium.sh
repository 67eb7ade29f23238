#!/bin/sh
# Starts Chromium (the executable CZECH_PUB_CHROMIUM names) for the browser tests, with all of
# its --disable-features= switches made one, and so for --enable-features=. Chromium keeps only
# the last of a repeated switch, and Playwright passes its own list of features turned off: a
# second list (test/helpers/browser.ts) would silently drop Playwright's.
disable=''
enable=''
for arg in "$@"; do
  shift
  case $arg in
    --disable-features=*) disable="${disable:+$disable,}${arg#--disable-features=}" ;;
    --enable-features=*) enable="${enable:+$enable,}${arg#--enable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$CZECH_PUB_CHROMIUM" "$@" ${disable:+"--disable-features=$disable"} ${enable:+"--enable-features=$enable"}
