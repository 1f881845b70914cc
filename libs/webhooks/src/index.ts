export * from './address-rules';
