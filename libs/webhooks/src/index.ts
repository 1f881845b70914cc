export * from './address-rules';
export * from './webhook';
