// Umbrella header: everything the library offers.
#pragma once

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/format.h"
#include "pmucat/metadata.h"
#include "pmucat/spec.h"
#include "pmucat/suggest.h"
#include "pmucat/terms.h"
#include "pmucat/version.h"
