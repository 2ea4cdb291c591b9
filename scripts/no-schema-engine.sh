#!/bin/sh
echo "schema engine binary is not available on this machine" >&2
exit 1
