export { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from './document';
