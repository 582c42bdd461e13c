import { Type, type Static } from '@sinclair/typebox';
import { IsoDateTime, Literals } from './common';

/** Codes of a storage fault: the disk is full, or the storage fails otherwise. */
export const STORAGE_FAULT_CODES = ['STORAGE_FULL', 'STORAGE_UNAVAILABLE'] as const;
export type StorageFaultCode = (typeof STORAGE_FAULT_CODES)[number];

/** Free space of the data directory's disk and the storage fault holding now, if any. */
export const StorageStatusSchema = Type.Object(
  {
    freeBytes: Type.Integer({ minimum: 0 }),
    totalBytes: Type.Integer({ minimum: 0 }),
    low: Type.Boolean({ description: 'Free space is under DISK_MIN_FREE_MB' }),
    fault: Type.Union([Type.Object({ code: Literals(STORAGE_FAULT_CODES), since: IsoDateTime }), Type.Null()]),
  },
  { title: 'StorageStatus' },
);
export type StorageStatus = Static<typeof StorageStatusSchema>;
