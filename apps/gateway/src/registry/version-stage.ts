import { BadRequestException } from '@nestjs/common';
import type { ApiVersionPatch, LifecycleStage } from '#contracts';

export interface VersionStage {
  lifecycle: LifecycleStage;
  sunsetDate: string | null;
}

/**
 * A version's next stage from `PATCH …/versions/:version` (and a stage set with the API's own
 * PATCH). Only a deprecated version has a sunset date: one that leaves deprecation, retiring
 * included, loses it in the same step, so `{"lifecycle": "retired"}` is enough to retire a
 * deprecated version (the date is not kept as history: the version's `updatedAt` says when it
 * was retired). A sunset date sent for a version that is not, or no longer, deprecated is a 400.
 */
export function nextStage(current: VersionStage, patch: ApiVersionPatch): VersionStage {
  const lifecycle = patch.lifecycle ?? current.lifecycle;
  if (lifecycle === 'deprecated') return { lifecycle, sunsetDate: patch.sunsetDate === undefined ? current.sunsetDate : patch.sunsetDate };
  if (patch.sunsetDate) {
    throw new BadRequestException(
      patch.lifecycle
        ? `sunsetDate is for a deprecated version: a ${lifecycle} version has none (leave sunsetDate out; its date is cleared when it leaves deprecation)`
        : `sunsetDate is for a deprecated version: this one is ${lifecycle}; set lifecycle to "deprecated" with it`,
    );
  }
  return { lifecycle, sunsetDate: null };
}
