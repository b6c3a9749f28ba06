/// RxSwift's name for ``Observable``, for code that must tell it apart from another
/// `Observable` type (Combine's or Observation's).
public typealias RxObservable<Element> = Observable<Element>
