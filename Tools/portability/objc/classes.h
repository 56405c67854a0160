// NSObject and CADisplayLink as Objective-C classes (their members are declared in Swift, as Apple's pages
// show them, in ../AppleFrameworkStandIns.swift): what `@objc func frame(_ link: CADisplayLink)` needs.
// https://developer.apple.com/documentation/objectivec/nsobject-swift.class
// https://developer.apple.com/documentation/quartzcore/cadisplaylink
#pragma clang assume_nonnull begin
__attribute__((objc_root_class))
@interface NSObject
- (instancetype)init;
@end

@interface CADisplayLink : NSObject
@end
#pragma clang assume_nonnull end
