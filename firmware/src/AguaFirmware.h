// The Agua device core: include this one header (Arduino library convention).
#pragma once

#include "agua_backoff.h"
#include "agua_commands.h"
#include "agua_config.h"
#include "agua_device.h"
#include "agua_gate.h"
#include "agua_http.h"
#include "agua_json.h"
#include "agua_ports.h"
#include "agua_store.h"
#include "agua_telemetry.h"
#include "agua_time.h"
