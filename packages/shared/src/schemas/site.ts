import { Type, type Static } from '@sinclair/typebox';
import { SYNOPTIC_ROTATIONS, SYNOPTIC_SYMBOLS } from '../sites/sites';
import { IsoDateTime, Literals } from './common';

/**
 * Sites and their synoptic drawings (docs/sites.md). Shapes are checked here (400); values by
 * the server (422 SITE_INVALID / SYNOPTIC_INVALID naming the field and why), so input lengths
 * are looser than the rules.
 */
export const SiteSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    lat: Type.Union([Type.Number(), Type.Null()]),
    lon: Type.Union([Type.Number(), Type.Null()]),
    address: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { title: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

const siteFields = {
  name: Type.String({ maxLength: 1000, description: '1–100 characters once trimmed; unique regardless of case (409 SITE_NAME_TAKEN)' }),
  parentId: Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'an existing site, never itself or one of its descendants' }),
  lat: Type.Union([Type.Number(), Type.Null()], { description: '−90..90; with lon, or neither' }),
  lon: Type.Union([Type.Number(), Type.Null()], { description: '−180..180; with lat, or neither' }),
  address: Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], { description: 'up to 300 characters' }),
};

export const SiteCreateSchema = Type.Object(
  {
    name: siteFields.name,
    parentId: Type.Optional(siteFields.parentId),
    lat: Type.Optional(siteFields.lat),
    lon: Type.Optional(siteFields.lon),
    address: Type.Optional(siteFields.address),
  },
  { additionalProperties: false, title: 'SiteCreate' },
);
export type SiteCreate = Static<typeof SiteCreateSchema>;

/** Only the fields given change; null clears parentId, lat/lon (both) or address. */
export const SitePatchSchema = Type.Partial(Type.Object(siteFields), { additionalProperties: false, title: 'SitePatch' });
export type SitePatch = Static<typeof SitePatchSchema>;

export const SynopticSymbolSchema = Literals(SYNOPTIC_SYMBOLS);
export const SynopticRotationSchema = Type.Union(SYNOPTIC_ROTATIONS.map((r) => Type.Literal(r)));

export const SynopticItemSchema = Type.Object(
  {
    id: Type.String({ description: 'chosen by the client, up to 64 characters, unique in the drawing' }),
    symbol: SynopticSymbolSchema,
    deviceId: Type.Union([Type.String(), Type.Null()], { description: 'tank: a level sensor; gate: a gate (both required); channel: either or null; label: null' }),
    x: Type.Number(),
    y: Type.Number(),
    w: Type.Number(),
    h: Type.Number(),
    label: Type.String({ description: 'up to 100 characters, may be empty' }),
    rotation: SynopticRotationSchema,
  },
  { title: 'SynopticItem' },
);
export type SynopticItem = Static<typeof SynopticItemSchema>;

export const SynopticBackgroundSchema = Type.Union(
  [Type.Object({ kind: Type.Literal('grid') }, { additionalProperties: false }), Type.Object({ kind: Type.Literal('svg'), svg: Type.String() }, { additionalProperties: false })],
  { title: 'SynopticBackground' },
);
export type SynopticBackground = Static<typeof SynopticBackgroundSchema>;

const PersonSchema = Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() });

export const SynopticSchema = Type.Object(
  {
    siteId: Type.String(),
    version: Type.Integer({ minimum: 0, description: '0 = never saved (a grid, no items)' }),
    width: Type.Integer(),
    height: Type.Integer(),
    background: SynopticBackgroundSchema,
    items: Type.Array(SynopticItemSchema),
    createdAt: Type.Union([IsoDateTime, Type.Null()]),
    createdBy: Type.Union([PersonSchema, Type.Null()]),
  },
  { title: 'Synoptic' },
);
export type Synoptic = Static<typeof SynopticSchema>;

/** The answer to a save: the stored drawing, and what the SVG sanitiser removed from its background. */
export const SynopticSavedSchema = Type.Composite(
  [SynopticSchema, Type.Object({ sanitized: Type.Array(Type.String(), { description: "what was removed from the SVG background, e.g. 'script', 'onload', 'foreignObject', 'xlink:href'" }) })],
  { title: 'SynopticSaved' },
);
export type SynopticSaved = Static<typeof SynopticSavedSchema>;

export const SynopticVersionSchema = Type.Object(
  { version: Type.Integer({ minimum: 1 }), createdAt: IsoDateTime, createdBy: Type.Union([PersonSchema, Type.Null()]) },
  { title: 'SynopticVersion' },
);
export type SynopticVersion = Static<typeof SynopticVersionSchema>;

/** An item as saved; `deviceId` may be left out (null). Values are checked by the server (422). */
export const SynopticItemInputSchema = Type.Object(
  {
    id: Type.String({ maxLength: 1000 }),
    symbol: SynopticSymbolSchema,
    deviceId: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    x: Type.Number(),
    y: Type.Number(),
    w: Type.Number(),
    h: Type.Number(),
    label: Type.String({ maxLength: 1000 }),
    rotation: Type.Number({ description: '0, 90, 180 or 270' }),
  },
  { additionalProperties: false, title: 'SynopticItemInput' },
);

export const SynopticSaveSchema = Type.Object(
  {
    baseVersion: Type.Integer({ minimum: 0, description: 'the version read (0 = never saved); another one answers 409 VERSION_CONFLICT' }),
    width: Type.Number({ description: 'an integer 200–10000' }),
    height: Type.Number({ description: 'an integer 200–10000' }),
    background: SynopticBackgroundSchema,
    items: Type.Array(SynopticItemInputSchema, { maxItems: 1000, description: 'up to 200, unique ids' }),
  },
  { additionalProperties: false, title: 'SynopticSave' },
);
export type SynopticSave = Static<typeof SynopticSaveSchema>;
