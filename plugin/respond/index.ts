export { buildEnvelope, pageWindow, type Envelope, type PageLink, type PageRequest } from './envelope';
export { shapeRecords, shapeRecordsInSlices, type JsonRecord, type JsonValue, type ShapedExpansion, type ShapedScope } from './records';
export { buildSimpleEnvelope, type SimpleEnvelope, type SimplePageRequest } from './simple-envelope';
export { buildCursorEnvelope, type CursorEnvelope, type CursorPageRequest } from './cursor-envelope';
export { serializeInSlices } from './serialize';
export { Slices } from './slices';
export { readSummary, withSummary, type FacetValue, type StatsValue, type Summary, type SummaryItemShape } from './summary';
export { csvCell, csvColumns, csvHeader, csvRows, type CsvColumn } from './csv';
