export * from './field-rules';
export * from './request-dto.pipe';
